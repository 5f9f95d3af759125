import { Alert, AppShell, Burger, Button, Center, Group, Loader, NavLink, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import {
  IconAdjustments,
  IconChartBar,
  IconFiles,
  IconFileText,
  IconFolder,
  IconHome,
  IconLink,
  IconMailPlus,
  IconSettings,
  IconUpload,
  IconUsers,
} from '@tabler/icons-react';
import { Suspense } from 'react';
import { Navigate, Outlet, NavLink as RouterLink, useLocation } from 'react-router';
import { ApiError } from '../api/client.ts';
import { usePageTitle } from '../api/server.ts';
import { loginPath, useCurrentUser } from '../api/session.ts';
import { Logo } from './Logo.tsx';
import { ThemeToggle } from './ThemeToggle.tsx';
import { UserMenu } from './UserMenu.tsx';

const PAGES = [
  { to: '/home', label: 'Home', icon: IconHome, role: 'USER' },
  { to: '/files', label: 'Files', icon: IconFiles, role: 'USER' },
  { to: '/upload', label: 'Upload', icon: IconUpload, role: 'USER' },
  { to: '/upload/text', label: 'Upload text', icon: IconFileText, role: 'USER' },
  { to: '/folders', label: 'Folders', icon: IconFolder, role: 'USER' },
  { to: '/links', label: 'Links', icon: IconLink, role: 'USER' },
  { to: '/settings', label: 'Settings', icon: IconSettings, role: 'USER' },
  { to: '/users', label: 'Users', icon: IconUsers, role: 'ADMIN' },
  { to: '/metrics', label: 'Metrics', icon: IconChartBar, role: 'ADMIN' },
  { to: '/invites', label: 'Invites', icon: IconMailPlus, role: 'ADMIN' },
  { to: '/server', label: 'Server settings', icon: IconAdjustments, role: 'SUPERADMIN' },
] as const;

/** The roles that see a page's link: its own and those above it. */
const SEES: Record<string, readonly string[]> = {
  USER: ['USER', 'ADMIN', 'SUPERADMIN'],
  ADMIN: ['ADMIN', 'SUPERADMIN'],
  SUPERADMIN: ['SUPERADMIN'],
};

/** The page whose path is the longest start of the location (`/upload/text` is not `/upload`). */
function currentPage(pathname: string, pages: readonly (typeof PAGES)[number][]) {
  return pages
    .filter((page) => pathname === page.to || pathname.startsWith(`${page.to}/`))
    .reduce<(typeof PAGES)[number] | undefined>(
      (best, page) => (best && best.to.length >= page.to.length ? best : page),
      undefined,
    );
}

const PageLoader = () => (
  <Center h={200}>
    <Loader role="status" aria-label="Loading" />
  </Center>
);

/** The signed-in frame: header with the user menu, navigation, and the page. */
export default function Layout() {
  const location = useLocation();
  const [opened, { toggle, close }] = useDisclosure();
  const { data, error, isPending, refetch } = useCurrentUser();
  usePageTitle(currentPage(location.pathname, PAGES)?.label);

  if (isPending) return <PageLoader />;
  if (error) {
    if (error instanceof ApiError && error.status === 401)
      return <Navigate to={loginPath(location)} replace />;
    return (
      <Center h="100vh" p="md">
        <Alert color="red" title="The service cannot be reached">
          <Text mb="sm">{error.message}</Text>
          <Button onClick={() => refetch()}>Try again</Button>
        </Alert>
      </Center>
    );
  }
  const pages = PAGES.filter((page) => SEES[page.role]?.includes(data.user.role));
  const current = currentPage(location.pathname, pages)?.to;

  return (
    <AppShell
      header={{ height: 60 }}
      navbar={{ width: 220, breakpoint: 'sm', collapsed: { mobile: !opened } }}
      padding="md"
    >
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger
              opened={opened}
              onClick={toggle}
              hiddenFrom="sm"
              size="sm"
              aria-label="Toggle navigation"
            />
            <Logo />
          </Group>
          <Group gap="xs" wrap="nowrap">
            <ThemeToggle />
            <UserMenu user={data.user} token={data.token} />
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="sm" aria-label="Main">
        {pages.map((page) => (
          <NavLink
            key={page.to}
            component={RouterLink}
            to={page.to}
            // The router's own match would also mark Upload on /upload/text.
            end
            label={page.label}
            leftSection={<page.icon size={18} stroke={1.6} aria-hidden />}
            active={page.to === current}
            onClick={close}
          />
        ))}
      </AppShell.Navbar>
      <AppShell.Main>
        <Suspense fallback={<PageLoader />}>
          <Outlet />
        </Suspense>
      </AppShell.Main>
    </AppShell>
  );
}
