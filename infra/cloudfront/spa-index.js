// CloudFront Function (viewer request, cloudfront-js-2.0) on the dashboard's default behaviour: a
// path whose last segment has no file extension is a route of the single-page app, so it gets
// index.html (the private bucket answers a missing key with 403, which must not reach people).
// Another name than the custom domain is redirected first (canonical-host.js, put before this).
// biome-ignore lint/correctness/noUnusedVariables: CloudFront calls handler by name.
function handler(event) {
  var request = event.request;
  var redirect = canonicalRedirect(request);
  if (redirect) return redirect;
  var last = request.uri.split('/').pop();
  if (last.indexOf('.') === -1) request.uri = '/index.html';
  return request;
}
