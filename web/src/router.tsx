import { lazy, Suspense } from 'react';
import { createBrowserRouter, Navigate } from 'react-router';
import { LoginPage } from './pages/Login.tsx';
import { SetupPage } from './pages/Setup.tsx';
import { loadFilesPage, loadLayout } from './pages/signed-in.ts';

// Everything behind login loads on demand: the login page's first load stays small.
const Layout = lazy(loadLayout);
const FilesPage = lazy(loadFilesPage);
const UploadPage = lazy(() => import('./pages/Upload.tsx'));
const SettingsPage = lazy(() => import('./pages/settings/SettingsPage.tsx'));
const UsersPage = lazy(() => import('./pages/users/UsersPage.tsx'));
const LinksPage = lazy(() => import('./pages/links/LinksPage.tsx'));
const FoldersPage = lazy(() => import('./pages/folders/FoldersPage.tsx'));
const NotFoundPage = lazy(() => import('./pages/NotFound.tsx'));

export const router = createBrowserRouter([
  { path: '/login', element: <LoginPage /> },
  { path: '/setup', element: <SetupPage /> },
  {
    path: '/',
    element: (
      <Suspense>
        <Layout />
      </Suspense>
    ),
    children: [
      { index: true, element: <Navigate to="/files" replace /> },
      { path: 'files', element: <FilesPage /> },
      { path: 'upload', element: <UploadPage /> },
      { path: 'links', element: <LinksPage /> },
      { path: 'folders', element: <FoldersPage /> },
      { path: 'settings', element: <SettingsPage /> },
      { path: 'users', element: <UsersPage /> },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
]);
