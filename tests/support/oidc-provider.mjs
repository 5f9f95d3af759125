// A real OpenID Connect provider process for the tests (oauth2-mock-server): plain `node` runs it,
// outside jest's module realms (jose's keys must be plain objects of the realm that checks them).
// The parent controls it over the IPC channel: {signInAs: {sub, username}} sets the account of the
// next sign-ins; {tamper: {claim: value}} changes the next ID token's claims (a wrong nonce, issuer,
// audience). It answers each message with {ok: true}, and first with {issuer}.
import { OAuth2Server } from 'oauth2-mock-server';

const [clientId] = process.argv.slice(2);
const server = new OAuth2Server();
await server.issuer.keys.generate('RS256');
await server.start(0, '127.0.0.1');
const issuer = `http://127.0.0.1:${server.address().port}`;
server.issuer.url = issuer;

let account = { sub: 'oidc-user', username: 'oidc-user' };
let tamper;
server.service.on('beforeTokenSigning', (token) => {
  Object.assign(token.payload, { sub: account.sub, preferred_username: account.username });
  // Only ID tokens have the client as their audience; access tokens are left alone.
  if (tamper && token.payload.aud === clientId) {
    Object.assign(token.payload, tamper);
    tamper = undefined;
  }
});

process.on('message', (message) => {
  if (message.signInAs) account = message.signInAs;
  if (message.tamper) tamper = message.tamper;
  process.send({ ok: true });
});
process.on('disconnect', () => server.stop().then(() => process.exit(0)));
process.send({ issuer });
