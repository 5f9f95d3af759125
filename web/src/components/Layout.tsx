import { Alert, AppShell, Burger, Button, Center, Group, Loader, NavLink, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconFiles, IconFolder, IconLink, IconSettings, IconUpload, IconUsers } from '@tabler/icons-react';
import { Suspense } from 'react';
import { Navigate, Outlet, NavLink as RouterLink, useLocation } from 'react-router';
import { ApiError } from '../api/client.ts';
import { loginPath, useCurrentUser } from '../api/session.ts';
import { Logo } from './Logo.tsx';
import { ThemeToggle } from './ThemeToggle.tsx';
import { UserMenu } from './UserMenu.tsx';

const PAGES = [
  { to: '/files', label: 'Files', icon: IconFiles, admin: false },
  { to: '/upload', label: 'Upload', icon: IconUpload, admin: false },
  { to: '/folders', label: 'Folders', icon: IconFolder, admin: false },
  { to: '/links', label: 'Links', icon: IconLink, admin: false },
  { to: '/settings', label: 'Settings', icon: IconSettings, admin: false },
  { to: '/users', label: 'Users', icon: IconUsers, admin: true },
];

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
  const isAdmin = data.user.role !== 'USER';

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
        {PAGES.filter((page) => isAdmin || !page.admin).map((page) => (
          <NavLink
            key={page.to}
            component={RouterLink}
            to={page.to}
            label={page.label}
            leftSection={<page.icon size={18} stroke={1.6} aria-hidden />}
            active={location.pathname.startsWith(page.to)}
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
