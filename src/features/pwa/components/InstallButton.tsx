import { Button } from '@fluentui/react-components';
import { ArrowDownloadRegular } from '@fluentui/react-icons';
import { useStore } from 'zustand';
import { installOffer } from '../install-offer.ts';

export function InstallButton({ className }: { className?: string }) {
  const install = useStore(installOffer, (s) => s.install);
  if (!install) return null;
  return (
    <Button appearance="subtle" className={className} icon={<ArrowDownloadRegular />} onClick={() => void install()}>
      Install app
    </Button>
  );
}
