import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import { type CSSVariablesResolver, createTheme, MantineProvider } from '@mantine/core';
import { ModalsProvider } from '@mantine/modals';
import { Notifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { ApiError, setUnauthorizedHandler } from './api/client.ts';
import { loginPath } from './api/session.ts';
import { router } from './router.tsx';

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      // A 4xx will not change by asking again; a 5xx or a dropped connection might.
      retry: (count, error) => !(error instanceof ApiError && error.status < 500) && count < 2,
      refetchOnWindowFocus: false,
    },
  },
});

// An expired or revoked session anywhere: back to login, and afterwards back here.
setUnauthorizedHandler(() => {
  if (window.location.pathname === '/login' || window.location.pathname === '/setup') return;
  queryClient.clear();
  void router.navigate(loginPath(window.location), { replace: true });
});

// Shades chosen for WCAG AA contrast (4.5:1) of text on buttons and of secondary text, both themes.
const theme = createTheme({
  primaryColor: 'blue',
  primaryShade: { light: 8, dark: 8 },
  defaultRadius: 'md',
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
  components: {
    // Icon-only buttons Mantine renders itself get a name (axe: button-name).
    Notification: { defaultProps: { closeButtonProps: { 'aria-label': 'Dismiss notification' } } },
    Modal: { defaultProps: { closeButtonProps: { 'aria-label': 'Close' } } },
    ColorInput: {
      defaultProps: { eyeDropperButtonProps: { 'aria-label': 'Pick a colour from the screen' } },
    },
  },
});

const contrastVariables: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': 'var(--mantine-color-gray-7)',
    // Text of light variants (active navigation, badges) on their tinted background.
    '--mantine-primary-color-light-color': 'var(--mantine-color-blue-9)',
    '--mantine-color-blue-light-color': 'var(--mantine-color-blue-9)',
    '--mantine-primary-color-light-hover': 'var(--mantine-color-blue-1)',
    // Field errors ("This time has passed…"): red-6 is 3.3:1 on white, red-9 5.3:1.
    '--mantine-color-error': 'var(--mantine-color-red-9)',
  },
  dark: {
    '--mantine-color-dimmed': 'var(--mantine-color-dark-1)',
    '--mantine-color-error': 'var(--mantine-color-red-4)',
  },
});

createRoot(document.getElementById('root') as HTMLElement).render(
  <StrictMode>
    <MantineProvider theme={theme} defaultColorScheme="auto" cssVariablesResolver={contrastVariables}>
      <QueryClientProvider client={queryClient}>
        <ModalsProvider>
          <Notifications position="bottom-right" />
          <RouterProvider router={router} />
        </ModalsProvider>
      </QueryClientProvider>
    </MantineProvider>
  </StrictMode>,
);
