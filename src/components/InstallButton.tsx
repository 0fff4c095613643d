import { Button } from '@fluentui/react-components';
import { ArrowDownloadRegular } from '@fluentui/react-icons';
import { useInstallPrompt } from '../pwa/install-prompt.ts';

export function InstallButton() {
  const install = useInstallPrompt((s) => s.install);
  if (!install) return null;
  return (
    <Button appearance="subtle" icon={<ArrowDownloadRegular />} onClick={() => void install()}>
      Install app
    </Button>
  );
}
