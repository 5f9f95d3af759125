// Put before every viewer-request function of the distribution (infra/cloudfront-code.ts), with
// CANONICAL_HOST set to the custom domain, or '' without one: a request to another of the
// distribution's names (its own *.cloudfront.net) is sent to the same path and query on the custom
// domain, so passkeys, cookies and links live on one origin. 308 keeps the method and the body.
var CANONICAL_HOST = '';

// biome-ignore lint/correctness/noUnusedVariables: the function after this prelude calls it.
function canonicalRedirect(request) {
  var host = request.headers.host;
  if (!CANONICAL_HOST || (host && host.value.toLowerCase() === CANONICAL_HOST)) return undefined;
  var query = request.querystring || {};
  var pairs = [];
  Object.keys(query).forEach((name) => {
    (query[name].multiValue || [query[name]]).forEach((entry) => {
      pairs.push(entry.value === '' ? name : `${name}=${entry.value}`);
    });
  });
  var search = pairs.length ? `?${pairs.join('&')}` : '';
  return {
    statusCode: 308,
    statusDescription: 'Permanent Redirect',
    headers: { location: { value: `https://${CANONICAL_HOST}${request.uri}${search}` } },
  };
}
