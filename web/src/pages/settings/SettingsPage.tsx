import { Tabs, Title } from '@mantine/core';
import { IconBrandShazam, IconFileZip, IconPlug, IconUser } from '@tabler/icons-react';
import { useSearchParams } from 'react-router';
import { useCurrentUser } from '../../api/session.ts';
import { AccountTab } from './AccountTab.tsx';
import { ExportTab } from './ExportTab.tsx';
import { UploadersTab } from './UploadersTab.tsx';
import { ViewTab } from './ViewTab.tsx';

const TABS = ['account', 'view', 'uploaders', 'export'];

export default function SettingsPage() {
  const [params, setParams] = useSearchParams();
  const { data } = useCurrentUser();
  const tab = TABS.includes(params.get('tab') ?? '') ? (params.get('tab') as string) : 'account';
  if (!data) return null;
  return (
    <>
      <Title order={1} mb="md">
        Settings
      </Title>
      <Tabs
        value={tab}
        onChange={(value) => setParams({ tab: value ?? 'account' }, { replace: true })}
        keepMounted={false}
      >
        <Tabs.List mb="md">
          <Tabs.Tab value="account" leftSection={<IconUser size={16} />}>
            Account
          </Tabs.Tab>
          <Tabs.Tab value="view" leftSection={<IconBrandShazam size={16} />}>
            Links and embeds
          </Tabs.Tab>
          <Tabs.Tab value="uploaders" leftSection={<IconPlug size={16} />}>
            Token and uploaders
          </Tabs.Tab>
          <Tabs.Tab value="export" leftSection={<IconFileZip size={16} />}>
            Export
          </Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="account">
          <AccountTab user={data.user} />
        </Tabs.Panel>
        <Tabs.Panel value="view">
          <ViewTab view={data.user.view} username={data.user.username} />
        </Tabs.Panel>
        <Tabs.Panel value="uploaders">
          <UploadersTab />
        </Tabs.Panel>
        <Tabs.Panel value="export">
          <ExportTab />
        </Tabs.Panel>
      </Tabs>
    </>
  );
}
