import { Button, DrawerBody, DrawerHeader, DrawerHeaderTitle, OverlayDrawer } from '@fluentui/react-components';
import { DismissRegular } from '@fluentui/react-icons';
import type { ReactNode } from 'react';

/** The small-screen navigation: an overlay drawer from the end edge. */
export default function NavDrawer({ open, onClose, className, children }: { open: boolean; onClose: () => void; className: string; children: ReactNode }) {
  return (
    <OverlayDrawer open={open} onOpenChange={(_, data) => !data.open && onClose()} position="end" className={className}>
      <DrawerHeader>
        <DrawerHeaderTitle action={<Button appearance="subtle" aria-label="Close navigation" icon={<DismissRegular />} onClick={onClose} />}>
          Menu
        </DrawerHeaderTitle>
      </DrawerHeader>
      <DrawerBody>{children}</DrawerBody>
    </OverlayDrawer>
  );
}
