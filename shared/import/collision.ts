import { ServiceError } from '#shared/errors';

/**
 * A Zipline entity whose unique name is taken here by something else (a username, a file's public
 * name, a short link's code or vanity, a tag's name): 409, nothing written, nothing overwritten. The
 * answer names what collided (`{error, <field>: <value>}`), so the importer can report it.
 */
export class ImportCollision extends ServiceError {
  constructor(
    message: string,
    readonly field: 'username' | 'name',
    readonly value: string,
  ) {
    super('conflict', message, {}, { [field]: value });
    this.name = 'ImportCollision';
  }
}
