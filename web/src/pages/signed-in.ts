import type { QueryClient } from '@tanstack/react-query';
import { recentFilesQuery, userStatsQuery } from '../api/home.ts';
import { currentUserQuery } from '../api/session.ts';
import { fileListingQuery, fileQueryFrom } from './files/query.ts';

/** The signed-in frame and the page most sign-ins land on, loaded on demand (router.tsx). */
export const loadLayout = () => import('../components/Layout.tsx');
export const loadFilesPage = () => import('./files/FilesPage.tsx');
export const loadHomePage = () => import('./home/HomePage.tsx');

/**
 * Called as a sign-in is sent: the frame and files page load while the password is checked, so
 * the way in is not a chain of downloads after it.
 */
export function preloadSignedIn() {
  void loadLayout();
  void loadHomePage();
}

/**
 * Called once signed in: a fresh cache, then what the landing page
 * needs fetched at once, side by side, instead of each after the code that asks for it.
 */
export function prefetchLanding(queryClient: QueryClient, target: string) {
  // Everything of a previous user goes; whether the first run is done is nobody's and stays (the
  // page still shown would otherwise fetch it again, or the first-run page leave for /login).
  queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== 'setup' });
  void queryClient.prefetchQuery(currentUserQuery);
  const url = new URL(target, window.location.origin);
  if (url.pathname === '/home') {
    void queryClient.prefetchQuery(userStatsQuery);
    void queryClient.prefetchQuery(recentFilesQuery);
  }
  if (url.pathname === '/files') {
    void queryClient.prefetchQuery(fileListingQuery(fileQueryFrom(url.searchParams)));
  }
}
