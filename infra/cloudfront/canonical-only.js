// CloudFront Function (viewer request, cloudfront-js-2.0) on the hashed assets' behaviour, with a
// custom domain only: another name than the custom domain is redirected (canonical-host.js, put
// before this); the assets themselves pass as they are.
// biome-ignore lint/correctness/noUnusedVariables: CloudFront calls handler by name.
function handler(event) {
  return canonicalRedirect(event.request) || event.request;
}
