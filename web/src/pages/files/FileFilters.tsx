import {
  ActionIcon,
  Button,
  Collapse,
  Group,
  SegmentedControl,
  Select,
  Switch,
  TextInput,
  Tooltip,
} from '@mantine/core';
import { useDisclosure, useMediaQuery } from '@mantine/hooks';
import {
  IconAdjustmentsHorizontal,
  IconLayoutGrid,
  IconList,
  IconSearch,
  IconSortAscending,
  IconSortDescending,
  IconTags,
} from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { FileQuery } from '../../api/files.ts';
import { tagsQuery } from '../../api/tags.ts';
import type { SearchField, SortField } from '../../api/types.ts';
import { SEARCH_LABELS, SORT_LABELS } from './labels.ts';
import { openTagManager } from './TagManager.tsx';

interface Props {
  query: FileQuery;
  view: 'grid' | 'table';
  update: (change: Record<string, string | null>) => void;
  search: string;
  onSearch: (text: string) => void;
}

/**
 * Search, sort, favorites and layout. On a phone only the search shows; the rest waits behind
 * "Filters", so the files, not the controls, fill the first screen.
 */
export function FileFilters({ query, view, update, search, onSearch }: Props) {
  const phone = useMediaQuery('(max-width: 48em)', false, { getInitialValueInEffect: false });
  const [opened, { toggle }] = useDisclosure(false);
  const tags = useQuery(tagsQuery);
  // A tag filter lists the tag's files; the text search waits until it is cleared (one or the other).
  const tagFilter = (
    <Select
      label="Tag"
      placeholder="Any tag"
      w={160}
      clearable
      data={(tags.data ?? []).map((tag) => ({ value: tag.id, label: tag.name }))}
      value={query.tag || null}
      onChange={(value) => update({ tag: value, q: null })}
    />
  );
  const manageTags = (
    <Button variant="default" leftSection={<IconTags size={16} aria-hidden />} onClick={openTagManager}>
      Tags
    </Button>
  );
  const searchInput = (
    <TextInput
      label="Search"
      placeholder={query.tag ? 'Clear the tag to search' : 'Search files'}
      disabled={query.tag !== ''}
      leftSection={<IconSearch size={16} />}
      style={{ flex: '1 1 180px' }}
      value={search}
      onChange={(event) => onSearch(event.currentTarget.value)}
    />
  );
  const searchIn = (
    <Select
      label="Search in"
      w={150}
      data={Object.entries(SEARCH_LABELS).map(([value, label]) => ({ value, label }))}
      value={query.searchField}
      onChange={(value) => update({ searchField: value as SearchField })}
      allowDeselect={false}
    />
  );
  const controls = (
    <>
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
    </>
  );
  if (!phone) {
    return (
      <Group gap="sm" align="flex-end" wrap="wrap">
        {searchIn}
        {searchInput}
        {tagFilter}
        {controls}
        {manageTags}
      </Group>
    );
  }
  return (
    <div>
      <Group gap="sm" align="flex-end" wrap="nowrap">
        {searchInput}
        <Button
          variant="default"
          leftSection={<IconAdjustmentsHorizontal size={16} aria-hidden />}
          aria-expanded={opened}
          aria-controls="file-filters"
          onClick={toggle}
        >
          Filters
        </Button>
      </Group>
      <Collapse expanded={opened}>
        <Group id="file-filters" gap="sm" align="flex-end" wrap="wrap" pt="sm">
          {searchIn}
          {tagFilter}
          {controls}
          {manageTags}
        </Group>
      </Collapse>
    </div>
  );
}
