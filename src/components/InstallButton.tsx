import { Button } from '@fluentui/react-components';
import { ArrowDownloadRegular } from '@fluentui/react-icons';
import { useInstallPrompt } from '../pwa/install-prompt.ts';

export function InstallButton({ className }: { className?: string }) {
  const install = useInstallPrompt((s) => s.install);
  if (!install) return null;
  return (
    <Button appearance="subtle" className={className} icon={<ArrowDownloadRegular />} onClick={() => void install()}>
      Install app
    </Button>
  );
}
