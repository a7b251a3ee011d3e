import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import '@xyflow/react/dist/style.css';
import './app/styles.css';
import { App } from './app/App';
import { connectBridge } from './bridge';
import { createShellStore, createStores } from './app/stores';

const shell = createShellStore();
const bridge = connectBridge((state) => shell.setState({ connection: state }));
const stores = createStores(bridge, shell);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App stores={stores} />
  </StrictMode>,
);
