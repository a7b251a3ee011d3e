import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import '@xyflow/react/dist/style.css';
import './app/styles.css';
import { App } from './app/App';
import { captureLaunchToken, connectBridge } from './bridge';
import { createShellStore, createStores } from './app/stores';

// Before the shell reads the address's fragment for its screen: host mode's token arrives there.
captureLaunchToken();
const shell = createShellStore();
const bridge = connectBridge((connection, session) => shell.setState({ connection, ...(session && { owner: session.owner }) }));
const stores = createStores(bridge, shell);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App stores={stores} />
  </StrictMode>,
);
