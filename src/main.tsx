import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App.tsx';
import { listenForInstallPrompt } from './pwa/install-prompt.ts';
import { registerServiceWorker } from './pwa/register-service-worker.ts';

listenForInstallPrompt();
registerServiceWorker();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
