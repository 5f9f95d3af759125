import { ActionIcon, CopyButton, Group, Tooltip } from '@mantine/core';
import { IconCheck, IconCopy, IconEdit, IconTrash } from '@tabler/icons-react';
import type { ReactNode } from 'react';

/**
 * The icon buttons at the end of a table row (users, links…): each with a tooltip, and an accessible
 * name that says what it acts on ("Edit alice"), so a table of them reads well to a screen reader.
 */
export function RowActions({
  subject,
  copy,
  onEdit,
  onDelete,
}: {
  /** What the row is, as the labels name it. */
  subject: string;
  /** A value to copy (a link), when the row has one. */
  copy?: string;
  onEdit?: () => void;
  onDelete?: () => void;
}) {
  return (
    <Group gap={0} wrap="nowrap">
      {copy !== undefined && (
        <CopyButton value={copy}>
          {({ copied, copy: copyValue }) => (
            <RowAction tooltip={copied ? 'Copied' : 'Copy link'} label={`Copy ${copy}`} onClick={copyValue}>
              {copied ? <IconCheck size={18} /> : <IconCopy size={18} />}
            </RowAction>
          )}
        </CopyButton>
      )}
      {onEdit && (
        <RowAction tooltip="Edit" label={`Edit ${subject}`} onClick={onEdit}>
          <IconEdit size={18} />
        </RowAction>
      )}
      {onDelete && (
        <RowAction tooltip="Delete" label={`Delete ${subject}`} onClick={onDelete} color="red">
          <IconTrash size={18} />
        </RowAction>
      )}
    </Group>
  );
}

function RowAction(props: {
  tooltip: string;
  label: string;
  onClick: () => void;
  color?: string;
  children: ReactNode;
}) {
  return (
    <Tooltip label={props.tooltip}>
      <ActionIcon variant="subtle" color={props.color} aria-label={props.label} onClick={props.onClick}>
        {props.children}
      </ActionIcon>
    </Tooltip>
  );
}
