import { RendererProvider, SSRProvider, type GriffelRenderer } from '@fluentui/react-components';
import { StrictMode } from 'react';
import { Router } from 'wouter';
import { useSession } from '../features/session/index.ts';
import { useTheme } from '../lib/theme/theme-store.ts';
import { App } from './App.tsx';
import type { RenderState } from './hydration/render-state.ts';

/**
 * The whole tree, the same in the browser and in the build's pre-render: `ssrPath` is the route
 * being pre-rendered. The browser gives it when it takes a pre-rendered page over: it is what
 * each part reads while it is taken over (React's server snapshot), and the browser's own address
 * once it has been. In the browser, `styleDocument` is where the style renderer reads back
 * pre-rendered styles.
 */
export function Root({ renderer, ssrPath, styleDocument }: { renderer: GriffelRenderer; ssrPath?: string; styleDocument?: Document }) {
  return (
    <StrictMode>
      <RendererProvider renderer={renderer} targetDocument={styleDocument}>
        <SSRProvider>
          <Router ssrPath={ssrPath}>
            <App />
          </Router>
        </SSRProvider>
      </RendererProvider>
    </StrictMode>
  );
}

/** The state the first render of `path` reads from the stores. */
export function currentRenderState(path: string): RenderState {
  const session = useSession.getState();
  return { path, isAuthenticated: session.isAuthenticated, themeMode: useTheme.getState().themeMode, userType: session.userType };
}
