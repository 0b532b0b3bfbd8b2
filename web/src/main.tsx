import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import 'nprogress/nprogress.css';
import './shared/i18n/i18n.ts';
import { installGlobalErrorLogging } from './shared/logs/global-errors.ts';
import { installLibraryLabels } from './shared/ui/library-labels.ts';
import { App } from './app/App.tsx';
import { warmUpStartRoute } from './app/router.tsx';
import './app/global.css';

installGlobalErrorLogging();
installLibraryLabels();
// A reload of a signed-in page: its chunks and the shell's data start now, side by side.
warmUpStartRoute();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
