import { Alert, Button, Group, Loader, Pagination, Select, Stack, Text, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconUpload } from '@tabler/icons-react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { tagsQuery } from '../../api/tags.ts';
import type { FileResource } from '../../api/types.ts';
import { BulkBar } from './BulkBar.tsx';
import { EmptyState } from './EmptyState.tsx';
import { FileDetail } from './FileDetail.tsx';
import { FileFilters } from './FileFilters.tsx';
import { FileGrid } from './FileGrid.tsx';
import { FileTable } from './FileTable.tsx';
import { PER_PAGE } from './labels.ts';
import { fileListingQuery, fileQueryFrom } from './query.ts';

/** The listing's state lives in the address, so reload, back and "return after login" keep it. */
function useFileQuery() {
  const [params, setParams] = useSearchParams();
  const query = fileQueryFrom(params);
  const view: 'grid' | 'table' = params.get('view') === 'table' ? 'table' : 'grid';
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
  const [detail, setDetail] = useState<FileResource | null>(null);

  // biome-ignore lint/correctness/useExhaustiveDependencies: only a settled new search text updates the address
  useEffect(() => {
    if (debouncedSearch !== query.searchQuery) update({ q: debouncedSearch });
  }, [debouncedSearch]);

  const listing = useQuery({ ...fileListingQuery(query), placeholderData: keepPreviousData });
  const files = listing.data?.page ?? [];
  const searching = query.searchQuery.trim() !== '' || query.tag !== '';
  const tags = useQuery(tagsQuery).data;
  const tagName = tags?.find((tag) => tag.id === query.tag)?.name;
  // A tag deleted (here or elsewhere) while it filters the page: back to every file.
  // biome-ignore lint/correctness/useExhaustiveDependencies: only a change of the tags decides it
  useEffect(() => {
    if (query.tag && tags && tagName === undefined) update({ tag: null });
  }, [tags]);
  // A search or a tag's listing has no total: offer the next page while pages come back full.
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
            {query.tag
              ? `Files tagged “${tagName ?? '…'}”`
              : searching
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

      <FileFilters query={query} view={view} update={update} search={search} onSearch={setSearch} />

      {selected.size > 0 && <BulkBar selected={selected} onDone={() => setSelected(new Set())} />}
      {detail && <FileDetail initial={detail} onClose={() => setDetail(null)} />}

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
        <FileTable
          files={files}
          selected={selected}
          onToggle={toggle}
          onSelectAll={setSelected}
          onOpen={setDetail}
        />
      ) : (
        <FileGrid files={files} selected={selected} onToggle={toggle} onOpen={setDetail} />
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
