/** The permissions of each operation live in the contract, shared with the dashboard. */
export {
  OPERATION_PERMISSIONS as ROUTE_PERMISSIONS,
  type RouteRule,
} from '../../api/operation-permissions.ts';
