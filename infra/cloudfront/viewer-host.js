// CloudFront Function (viewer request, cloudfront-js-2.0) on the API behaviours: the origin request
// carries the API's own Host (AllViewerExceptHostHeader), so the viewer's host, the dashboard's
// origin, travels in x-viewer-host, and the viewer's address in x-viewer-address (API Gateway sees
// CloudFront's). Whatever the viewer sent in those headers is replaced. The functions believe them
// only beside the origin secret the distribution adds (shared/http/distribution.ts).
// Another name than the custom domain is redirected first (canonical-host.js, put before this).
// biome-ignore lint/correctness/noUnusedVariables: CloudFront calls handler by name.
function handler(event) {
  var request = event.request;
  var redirect = canonicalRedirect(request);
  if (redirect) return redirect;
  var host = request.headers.host;
  if (host) request.headers['x-viewer-host'] = { value: host.value };
  else delete request.headers['x-viewer-host'];
  request.headers['x-viewer-address'] = { value: event.viewer.ip };
  return request;
}
