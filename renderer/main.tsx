import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.tsx';
import { connectAtrium } from './api/atriumClient.ts';
import { applyStoredTheme } from './features/settings/ThemePicker.tsx';
import { AtriumApiContext } from './api/useAtriumApi.ts';
import { bindAtriumStore } from './store/bindAtriumStore.ts';
import { keepPlace } from './store/keptPlace.ts';
import { keepFocusNearby } from './ui/focusKeeper.ts';
import { useAtriumStore } from './store/useAtriumStore.ts';

applyStoredTheme();
const connection = connectAtrium();
// A reload lands where the person was (before the first load, so a first run's view does not override it).
keepPlace(useAtriumStore);
bindAtriumStore(connection, useAtriumStore);
// The keyboard stays near where it was when the control that had it goes away (focusKeeper.ts).
keepFocusNearby(document);

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element.');
createRoot(root).render(
  <StrictMode>
    <AtriumApiContext.Provider value={connection.api}>
      <App />
    </AtriumApiContext.Provider>
  </StrictMode>,
);
