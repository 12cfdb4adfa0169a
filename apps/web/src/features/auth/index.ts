// The auth feature's public face: what other features may import.
export { USER_LOGGED_OUT_EVENT } from './auth-events';
export { useAuth } from './use-auth';
