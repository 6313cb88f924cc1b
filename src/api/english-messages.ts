import * as z from 'zod/mini';

/**
 * zod/mini's English messages ("Invalid input: expected string, received number"), the words of
 * the server's 400 answers and of the dashboard's form fields. Imported for its effect where
 * checks are turned into words: the server, the gateway, and in the browser the form kit
 * (web/components/form/zod-resolver.ts). A page without a form does without them and saves 1 kB
 * gzip (issue 17 item 9): the contract words its own checks ("has at most 64 characters"), and
 * zod's default there is "Invalid input", after the field's name.
 */
z.config(z.locales.en());
