import { OPERATIONS, type OperationName, type RouteRule } from '../../api/operations.ts';

export type { RouteRule };

/** The permissions of each operation: its entry's `anyOf` and `global` in the contract. */
export const ROUTE_PERMISSIONS: Readonly<Record<OperationName, RouteRule>> = OPERATIONS;
