import {
  ActionIcon,
  Alert,
  Button,
  Group,
  Loader,
  Pagination,
  SegmentedControl,
  Select,
  Stack,
  Switch,
  Text,
  TextInput,
  Title,
  Tooltip,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import {
  IconLayoutGrid,
  IconList,
  IconSearch,
  IconSortAscending,
  IconSortDescending,
  IconUpload,
} from '@tabler/icons-react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import type { SearchField, SortField } from '../../api/types.ts';
import { BulkBar } from './BulkBar.tsx';
import { EmptyState } from './EmptyState.tsx';
import { FileGrid } from './FileGrid.tsx';
import { FileTable } from './FileTable.tsx';
import { PER_PAGE, SEARCH_LABELS, SORT_LABELS } from './labels.ts';
import { fileListingQuery, fileQueryFrom } from './query.ts';

/** The listing's state lives in the address, so reload, back and "return after login" keep it. */
function useFileQuery() {
  const [params, setParams] = useSearchParams();
  const query = fileQueryFrom(params);
  const view = params.get('view') === 'table' ? 'table' : 'grid';
  const update = (change: Record<string, string | null>) =>
    setParams(
      () => {
        // The address, not the render's copy of it: two quick changes must both survive.
        const next = new URLSearchParams(window.location.search);
        for (const [key, value] of Object.entries(change)) {
          if (value === null || value === '') next.delete(key);
          else next.set(key, value);
        }
        // Any change but the page itself starts again at page 1.
        if (!('page' in change)) next.delete('page');
        return next;
      },
      { replace: true },
    );
  return { query, view, update };
}

export default function FilesPage() {
  const { query, view, update } = useFileQuery();
  const [search, setSearch] = useState(query.searchQuery);
  const [debouncedSearch] = useDebouncedValue(search, 300);
  const [selected, setSelected] = useState<Set<string>>(new Set());

  // biome-ignore lint/correctness/useExhaustiveDependencies: only a settled new search text updates the address
  useEffect(() => {
    if (debouncedSearch !== query.searchQuery) update({ q: debouncedSearch });
  }, [debouncedSearch]);

  const listing = useQuery({ ...fileListingQuery(query), placeholderData: keepPreviousData });
  const files = listing.data?.page ?? [];
  const searching = query.searchQuery.trim() !== '';
  // A search has no total: offer the next page while pages come back full.
  const pages = searching
    ? query.page + (files.length === query.perpage ? 1 : 0)
    : Math.max(1, listing.data?.pages ?? 1);

  const toggle = (id: string) =>
    setSelected((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end">
        <div>
          <Title order={1}>Files</Title>
          <Text c="dimmed" size="sm" aria-live="polite">
            {searching
              ? `Search results for “${query.searchQuery}”`
              : listing.data?.total !== undefined
                ? `${listing.data.total} ${listing.data.total === 1 ? 'file' : 'files'}${query.favorite ? ' in favorites' : ''}`
                : ' '}
          </Text>
        </div>
        <Button component={Link} to="/upload" leftSection={<IconUpload size={16} />}>
          Upload
        </Button>
      </Group>

      <Group gap="sm" align="flex-end" wrap="wrap">
        <Select
          label="Search in"
          w={150}
          data={Object.entries(SEARCH_LABELS).map(([value, label]) => ({ value, label }))}
          value={query.searchField}
          onChange={(value) => update({ searchField: value as SearchField })}
          allowDeselect={false}
        />
        <TextInput
          label="Search"
          placeholder="Search files"
          leftSection={<IconSearch size={16} />}
          style={{ flex: '1 1 180px' }}
          value={search}
          onChange={(event) => setSearch(event.currentTarget.value)}
        />
        <Select
          label="Sort by"
          w={160}
          data={Object.entries(SORT_LABELS).map(([value, label]) => ({ value, label }))}
          value={query.sortBy}
          onChange={(value) => update({ sortBy: value as SortField })}
          allowDeselect={false}
        />
        <Tooltip label={query.order === 'asc' ? 'Ascending' : 'Descending'}>
          <ActionIcon
            variant="default"
            size={36}
            aria-label={query.order === 'asc' ? 'Sort descending' : 'Sort ascending'}
            onClick={() => update({ order: query.order === 'asc' ? 'desc' : 'asc' })}
          >
            {query.order === 'asc' ? <IconSortAscending size={18} /> : <IconSortDescending size={18} />}
          </ActionIcon>
        </Tooltip>
        <Switch
          label="Favorites only"
          checked={query.favorite}
          onChange={(event) => update({ favorite: event.currentTarget.checked ? 'true' : null })}
          mb={8}
        />
        <SegmentedControl
          aria-label="Layout"
          value={view}
          onChange={(value) => update({ view: value === 'table' ? 'table' : null, page: String(query.page) })}
          data={[
            {
              value: 'grid',
              label: (
                <Group gap={6} wrap="nowrap">
                  <IconLayoutGrid size={16} aria-hidden /> Grid
                </Group>
              ),
            },
            {
              value: 'table',
              label: (
                <Group gap={6} wrap="nowrap">
                  <IconList size={16} aria-hidden /> Table
                </Group>
              ),
            },
          ]}
        />
      </Group>

      {selected.size > 0 && <BulkBar selected={selected} onDone={() => setSelected(new Set())} />}

      {listing.error ? (
        <Alert color="red" title="The files could not be loaded">
          {listing.error.message}
        </Alert>
      ) : listing.isPending ? (
        <Group justify="center" p="xl">
          <Loader role="status" aria-label="Loading files" />
        </Group>
      ) : files.length === 0 ? (
        <EmptyState filtered={searching || query.favorite} />
      ) : view === 'table' ? (
        <FileTable files={files} selected={selected} onToggle={toggle} onSelectAll={setSelected} />
      ) : (
        <FileGrid files={files} selected={selected} onToggle={toggle} />
      )}

      <Group justify="space-between" wrap="wrap">
        <Pagination
          total={pages}
          value={Math.min(query.page, pages)}
          onChange={(page) => update({ page: String(page) })}
          getItemProps={(page) => ({ 'aria-label': `Page ${page}` })}
          getControlProps={(control) => ({ 'aria-label': `${control} page` })}
        />
        <Select
          label="Per page"
          w={100}
          data={PER_PAGE}
          value={String(query.perpage)}
          onChange={(value) => update({ perpage: value })}
          allowDeselect={false}
        />
      </Group>
    </Stack>
  );
}
