import {
  Button,
  Group,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconCheck } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { errorMessage } from '../api/client.ts';
import { absoluteUrl } from '../api/format.ts';
import { uploadFile } from '../api/upload.ts';
import { useUploadOptions } from './UploadOptions.tsx';

const GUESS = '';

/** The languages the view page highlights (docs/text.md), by the extension that names them. */
const LANGUAGES = [
  { value: GUESS, label: 'Guess from the file name' },
  { value: 'txt', label: 'Plain text' },
  { value: 'md', label: 'Markdown (rendered)' },
  { value: 'ts', label: 'TypeScript' },
  { value: 'js', label: 'JavaScript' },
  { value: 'py', label: 'Python' },
  { value: 'json', label: 'JSON' },
  { value: 'sh', label: 'Shell' },
  { value: 'yaml', label: 'YAML' },
  { value: 'toml', label: 'TOML' },
  { value: 'ini', label: 'INI' },
  { value: 'go', label: 'Go' },
  { value: 'rs', label: 'Rust' },
  { value: 'java', label: 'Java' },
  { value: 'c', label: 'C' },
  { value: 'cpp', label: 'C++' },
  { value: 'sql', label: 'SQL' },
  { value: 'diff', label: 'Diff' },
  { value: 'css', label: 'CSS' },
  { value: 'html', label: 'HTML/XML' },
  { value: 'lua', label: 'Lua' },
];
const EXTENSIONS = new Set(LANGUAGES.map((language) => language.value).filter(Boolean));

/**
 * The name the paste is uploaded under: the language chosen gives the extension (replacing one the
 * list knows, else appended); guessed, a name without an extension is plain text.
 */
export function pasteName(name: string, language: string): string {
  const base = name.trim() || 'paste';
  const dot = base.lastIndexOf('.');
  const extension = dot > 0 ? base.slice(dot + 1).toLowerCase() : '';
  if (language === GUESS) return extension ? base : `${base}.txt`;
  if (extension === language) return base;
  return `${EXTENSIONS.has(extension) ? base.slice(0, dot) : base}.${language}`;
}

/**
 * "Upload text": a paste becomes a normal file through the upload route, with a text type (Markdown
 * as `text/markdown`, everything else `text/plain`, which downloads show in the browser); the view
 * page highlights it by its name's extension.
 */
export default function UploadTextPage() {
  const queryClient = useQueryClient();
  const { panel, resolve } = useUploadOptions();
  const [text, setText] = useState('');
  const [name, setName] = useState('');
  const [language, setLanguage] = useState(GUESS);
  const [busy, setBusy] = useState(false);
  const [url, setUrl] = useState<string>();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const options = resolve();
    if (!options) {
      notifications.show({ color: 'red', message: 'Nothing was uploaded: check the upload options' });
      return;
    }
    const fileName = pasteName(name, language);
    const type = /\.(md|markdown)$/i.test(fileName) ? 'text/markdown' : 'text/plain';
    setBusy(true);
    setUrl(undefined);
    try {
      const uploaded = await uploadFile(new File([text], fileName, { type }), options, () => {});
      setUrl(absoluteUrl(uploaded.url));
      await queryClient.invalidateQueries({ queryKey: ['files'] });
    } catch (error) {
      notifications.show({ color: 'red', message: errorMessage(error) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Stack gap="md" maw={960} component="form" onSubmit={submit}>
      <Title order={1}>Upload text</Title>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
        <TextInput
          label="File name"
          description="Its extension picks the highlighting when the language is guessed"
          placeholder="paste.txt"
          value={name}
          onChange={(event) => setName(event.currentTarget.value)}
        />
        <Select
          label="Language"
          data={LANGUAGES}
          value={language}
          allowDeselect={false}
          searchable
          onChange={(value) => setLanguage(value ?? GUESS)}
        />
      </SimpleGrid>
      <Textarea
        label="Text"
        required
        autosize
        minRows={12}
        maxRows={30}
        value={text}
        onChange={(event) => setText(event.currentTarget.value)}
        styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
      />
      {panel}
      <Group>
        <Button type="submit" loading={busy} disabled={text === ''}>
          Upload
        </Button>
        <Text size="sm" c="dimmed">
          Uploaded as {pasteName(name, language)}
        </Text>
      </Group>
      {url && (
        <Paper withBorder p="sm" role="status">
          <Group gap="xs" wrap="nowrap">
            <IconCheck size={16} color="var(--mantine-color-teal-7)" aria-label="Uploaded" />
            <Text size="sm" truncate style={{ userSelect: 'all' }}>
              {url}
            </Text>
          </Group>
        </Paper>
      )}
    </Stack>
  );
}
