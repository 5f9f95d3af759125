import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Annotations } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { PROJECT_ROOT } from '../project-root.ts';

/**
 * The native modules a function's asset carries beside its bundle (bcrypt, sharp, ffmpeg): which
 * packages, checked at synth against the versions the bundled loaders name, and the commands that
 * copy them after bundling (service-function.ts runs them).
 */

export const BCRYPT = '@node-rs/bcrypt';
/** The Lambda architecture's binary comes from `infra/native` (installed there for linux-arm64). */
const BCRYPT_ARM64 = join(
  PROJECT_ROOT,
  'infra',
  'native',
  'node_modules',
  '@node-rs',
  'bcrypt-linux-arm64-gnu',
);
/** The x64 binary from the root install, so the same asset also runs under `sam local` on x86. */
const BCRYPT_X64 = join(PROJECT_ROOT, 'node_modules', '@node-rs', 'bcrypt-linux-x64-gnu');
const BCRYPT_LOADER = join(PROJECT_ROOT, 'node_modules', '@node-rs', 'bcrypt');

/**
 * sharp is external, as bcrypt: its package (with its dependencies) is copied beside the bundle,
 * so its 130 KiB of JavaScript stay out of index.mjs (the upload's bundle is near the limit) and a
 * function that imports it lazily (the upload) loads it on its first image only. It loads its native
 * module from `node_modules/@img/sharp-<platform>/sharp.node`, which links libvips from the sibling
 * `@img/sharp-libvips-<platform>`. The linux-arm64 pair comes from `infra/native`, the x64 pair
 * (sam local on x86, and running the asset here) from the root install when present.
 */
export const SHARP = 'sharp';
const SHARP_LOADER = join(PROJECT_ROOT, 'node_modules', SHARP);
const SHARP_NATIVE = {
  arm64: ['sharp-linux-arm64', 'sharp-libvips-linux-arm64'].map((name) =>
    join(PROJECT_ROOT, 'infra', 'native', 'node_modules', '@img', name),
  ),
  x64: ['sharp-linux-x64', 'sharp-libvips-linux-x64'].map((name) =>
    join(PROJECT_ROOT, 'node_modules', '@img', name),
  ),
};

/**
 * ffmpeg (video thumbnails): a static executable, one per platform package of `@ffmpeg-installer`,
 * spawned by shared/thumbnails/video.ts. Only the linux-arm64 one (32.8 MB) goes into the asset,
 * from `infra/native`; the build machine's (68 MB for linux-x64) would more than triple the asset
 * for a binary Lambda never runs, so a bundle run on x64 makes no video thumbnail (tests/infra).
 */
const FFMPEG_ARM64 = join(
  PROJECT_ROOT,
  'infra',
  'native',
  'node_modules',
  '@ffmpeg-installer',
  'linux-arm64',
);

/** What a function carries natively, and the commands that copy it beside the bundle in `outputDir`. */
export const nativeCopyCommands = (
  outputDir: string,
  carries: { hashesPasswords: boolean; sharp: boolean; ffmpeg: boolean },
): string[] => [
  ...(carries.hashesPasswords ? copyBcryptCommands(outputDir) : []),
  ...(carries.sharp ? copySharpCommands(outputDir) : []),
  ...(carries.ffmpeg ? copyFfmpegCommands(outputDir) : []),
];

function packageVersion(directory: string): string {
  return (JSON.parse(readFileSync(join(directory, 'package.json'), 'utf8')) as { version: string }).version;
}

/** Fails synth when the arm64 binary is missing or built for another bcrypt version than the loader. */
function bcryptPackageDirectories(): string[] {
  if (!existsSync(BCRYPT_ARM64)) {
    throw new Error(
      `${BCRYPT_ARM64} is missing: run \`npm ci\` (its postinstall installs infra/native for linux-arm64)`,
    );
  }
  const loaderVersion = packageVersion(BCRYPT_LOADER);
  const directories = [BCRYPT_LOADER, BCRYPT_ARM64, ...(existsSync(BCRYPT_X64) ? [BCRYPT_X64] : [])];
  for (const directory of directories) {
    if (packageVersion(directory) !== loaderVersion) {
      throw new Error(
        `${directory} is not version ${loaderVersion} of ${BCRYPT}: pin infra/native/package.json to the root version`,
      );
    }
  }
  return directories;
}

function copyBcryptCommands(outputDir: string): string[] {
  const target = join(outputDir, 'node_modules', '@node-rs');
  return [
    `mkdir -p "${target}"`,
    ...bcryptPackageDirectories().map((source) => `cp -R "${source}" "${target}/"`),
  ];
}

/** Fails synth when the arm64 pair is missing or not the versions the bundled sharp names. */
function sharpPackageDirectories(): string[] {
  const wanted = (
    JSON.parse(readFileSync(join(SHARP_LOADER, 'package.json'), 'utf8')) as {
      optionalDependencies: Record<string, string>;
    }
  ).optionalDependencies;
  for (const directory of SHARP_NATIVE.arm64) {
    if (!existsSync(directory)) {
      throw new Error(
        `${directory} is missing: run \`npm ci\` (its postinstall installs infra/native for linux-arm64)`,
      );
    }
    const name = `@img/${directory.split('/').pop()}`;
    if (packageVersion(directory) !== wanted[name]) {
      throw new Error(
        `${directory} is not version ${wanted[name]}: pin infra/native/package.json to sharp's`,
      );
    }
  }
  const x64 = SHARP_NATIVE.x64.every((directory) => existsSync(directory)) ? SHARP_NATIVE.x64 : [];
  return [...SHARP_NATIVE.arm64, ...x64];
}

/** sharp's package and those it depends on that it does not nest itself (`@img/colour`, `detect-libc`). */
function sharpLoaderDirectories(): string[] {
  const { dependencies } = JSON.parse(readFileSync(join(SHARP_LOADER, 'package.json'), 'utf8')) as {
    dependencies: Record<string, string>;
  };
  const unnested = Object.keys(dependencies).filter(
    (name) => !existsSync(join(SHARP_LOADER, 'node_modules', name)),
  );
  return [SHARP, ...unnested];
}

function copySharpCommands(outputDir: string): string[] {
  const modules = join(outputDir, 'node_modules');
  const target = join(modules, '@img');
  return [
    `mkdir -p "${target}"`,
    ...sharpLoaderDirectories().map(
      (name) => `cp -R "${join(PROJECT_ROOT, 'node_modules', name)}" "${join(modules, name, '..')}/"`,
    ),
    ...sharpPackageDirectories().map((source) => `cp -R "${source}" "${target}/"`),
  ];
}

/** Fails synth when the arm64 binary is missing (the root postinstall installs it). */
function copyFfmpegCommands(outputDir: string): string[] {
  if (!existsSync(join(FFMPEG_ARM64, 'ffmpeg'))) {
    throw new Error(
      `${FFMPEG_ARM64} is missing: run \`npm ci\` (its postinstall installs infra/native for linux-arm64)`,
    );
  }
  const target = join(outputDir, 'node_modules', '@ffmpeg-installer');
  // `cp -R` keeps the executable bit, and the asset's zip keeps the file's mode.
  return [`mkdir -p "${target}"`, `cp -R "${FFMPEG_ARM64}" "${target}/"`];
}

export function warnWithoutX64Binary(scope: Construct): void {
  if (!existsSync(BCRYPT_X64)) {
    Annotations.of(scope).addWarningV2(
      'file-service:bcryptX64Missing',
      `${BCRYPT_X64} is not installed on this machine: the bundle carries only the arm64 binary and will not run under sam local on x86`,
    );
  }
}
