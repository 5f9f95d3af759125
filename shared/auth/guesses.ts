import { config } from '#shared/config/service';
import { foldUsername } from '#shared/db/username-forms';
import { addressSubject } from '#shared/throttle/address';
import { countAttempt, type Limit } from '#shared/throttle/counter';

/**
 * Guesses at one account's secrets: passwords at login or as a password change's current password,
 * and TOTP codes at login or to turn TOTP off. They share one counter per username, so guessing one
 * factor cannot go on under another's limit.
 */
export const usernameLimit = (username: string): Limit => ({
  scope: 'login-username',
  subject: foldUsername(username),
  max: config().throttle.loginPerUsername,
});

/** Counts a guess at an account's secrets before it is checked (429 past the limit). */
export const countGuess = (username: string) => countAttempt(usernameLimit(username));

/** Sign-in attempts from one client address (password logins and the codes sign-ins still owe). */
export const addressLimit = (sourceIp: string): Limit => ({
  scope: 'login-address',
  subject: addressSubject(sourceIp),
  max: config().throttle.loginPerAddress,
});
