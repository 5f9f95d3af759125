/**
 * Imported first by the CSRF tests: the allowed list is read once per process, when configuration
 * first loads, so it must be in the environment before any module that loads it is evaluated.
 */
process.env.ALLOWED_ORIGINS = 'https://dashboard.example.test, https://Other.Example.test';
