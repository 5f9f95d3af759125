import { lazy, Suspense } from 'react';
import { createBrowserRouter, Navigate } from 'react-router';
import { InvitePage } from './pages/Invite.tsx';
import { LoginPage } from './pages/Login.tsx';
import { SetupPage } from './pages/Setup.tsx';
import { loadFilesPage, loadHomePage, loadLayout } from './pages/signed-in.ts';

// Everything behind login loads on demand: the login page's first load stays small.
const Layout = lazy(loadLayout);
const FilesPage = lazy(loadFilesPage);
const HomePage = lazy(loadHomePage);
const UploadPage = lazy(() => import('./pages/Upload.tsx'));
const UploadTextPage = lazy(() => import('./pages/UploadText.tsx'));
const SettingsPage = lazy(() => import('./pages/settings/SettingsPage.tsx'));
const UsersPage = lazy(() => import('./pages/users/UsersPage.tsx'));
const LinksPage = lazy(() => import('./pages/links/LinksPage.tsx'));
const ServerSettingsPage = lazy(() => import('./pages/server/ServerSettingsPage.tsx'));
const InvitesPage = lazy(() => import('./pages/server/InvitesPage.tsx'));
const MetricsPage = lazy(() => import('./pages/metrics/MetricsPage.tsx'));
const FoldersPage = lazy(() => import('./pages/folders/FoldersPage.tsx'));
const NotFoundPage = lazy(() => import('./pages/NotFound.tsx'));

export const router = createBrowserRouter([
  { path: '/login', element: <LoginPage /> },
  { path: '/setup', element: <SetupPage /> },
  { path: '/invite/:code', element: <InvitePage /> },
  {
    path: '/',
    element: (
      <Suspense>
        <Layout />
      </Suspense>
    ),
    children: [
      { index: true, element: <Navigate to="/home" replace /> },
      { path: 'home', element: <HomePage /> },
      { path: 'files', element: <FilesPage /> },
      { path: 'upload', element: <UploadPage /> },
      { path: 'upload/text', element: <UploadTextPage /> },
      { path: 'links', element: <LinksPage /> },
      { path: 'folders', element: <FoldersPage /> },
      { path: 'settings', element: <SettingsPage /> },
      { path: 'users', element: <UsersPage /> },
      { path: 'invites', element: <InvitesPage /> },
      { path: 'server', element: <ServerSettingsPage /> },
      { path: 'metrics', element: <MetricsPage /> },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
]);
