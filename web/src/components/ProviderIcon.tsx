import { IconBrandDiscord, IconBrandGithub, IconBrandGoogle, IconKey } from '@tabler/icons-react';

const ICONS = { github: IconBrandGithub, discord: IconBrandDiscord, google: IconBrandGoogle };

/** The provider's mark; any OpenID Connect issuer gets a key. */
export function ProviderIcon({ id, size = 18 }: { id: string; size?: number }) {
  const Icon = ICONS[id as keyof typeof ICONS] ?? IconKey;
  return <Icon size={size} aria-hidden />;
}
