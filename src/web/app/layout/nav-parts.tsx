/**
 * The navigation's parts that read the API, in one chunk loaded after the shell's first paint
 * (bench/bundle-size.ts, the shell's budget): the held queue's count and the Custom fields item.
 */
export { HeldCount } from './held-count.tsx';
export { FieldsNavItem } from '../../features/fields/components/fields-nav-item.tsx';
