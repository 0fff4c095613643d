import { Button, MessageBar, MessageBarActions, MessageBarBody } from '@fluentui/react-components';
import { useAppUpdate } from '../register-service-worker.ts';

export default function UpdatePrompt() {
  const applyUpdate = useAppUpdate((s) => s.applyUpdate);
  if (!applyUpdate) return null;
  return (
    <MessageBar intent="info" role="status">
      <MessageBarBody>A new version is available</MessageBarBody>
      <MessageBarActions>
        <Button size="small" appearance="primary" onClick={applyUpdate}>
          Reload
        </Button>
      </MessageBarActions>
    </MessageBar>
  );
}
