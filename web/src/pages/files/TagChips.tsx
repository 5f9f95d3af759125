import { Badge } from '@mantine/core';
import type { Tag } from '../../api/tags.ts';

/** A file's tags as chips in each tag's colour (text black or white, whichever reads on it). */
export function TagChips({ tags }: { tags: readonly Tag[] }) {
  return tags.map((tag) => (
    <Badge key={tag.id} size="sm" color={tag.color} autoContrast variant="filled" title={`Tag: ${tag.name}`}>
      {tag.name}
    </Badge>
  ));
}
