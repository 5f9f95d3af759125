// CloudFront Function (viewer request, cloudfront-js-2.0) on the API behaviours: the origin request
// carries the API's own Host (AllViewerExceptHostHeader), so the viewer's host, the dashboard's
// origin, travels in x-viewer-host. Whatever the viewer sent in that header is replaced.
// biome-ignore lint/correctness/noUnusedVariables: CloudFront calls handler by name.
function handler(event) {
  var request = event.request;
  var host = request.headers.host;
  if (host) request.headers['x-viewer-host'] = { value: host.value };
  else delete request.headers['x-viewer-host'];
  return request;
}
