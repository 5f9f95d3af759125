import { type LinkRecord, type LinkResource, toLinkResource } from '#shared/links/model';
import { linkViews } from '#shared/links/views';

/** The API's shape of links, each with its views summed over its counters. */
export async function toLinkResources(links: LinkRecord[]): Promise<LinkResource[]> {
  const views = await linkViews(links.map((link) => link.id));
  return links.map((link) => toLinkResource(link, views.get(link.id) ?? 0));
}

export async function toOneLinkResource(link: LinkRecord): Promise<LinkResource> {
  return (await toLinkResources([link]))[0] as LinkResource;
}
