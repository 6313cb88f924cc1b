// The form kit's resolver: react-hook-form checks a form with its zod/mini schema, and a failed
// check reads in words ("Invalid option: expected one of …") because this module loads zod's
// English messages with it. Pages without a form do without them (1 kB gzip, issue 17 item 9);
// ESLint keeps every form on this import.
import '../../../api/english-messages.ts';

export { zodResolver } from '@hookform/resolvers/zod';
