/** Window events of the session (spec part 1 §4): price widgets refetch on login; the wallet resets on logout. */
export const USER_LOGGED_IN_EVENT = 'userLoggedIn';
export const USER_LOGGED_OUT_EVENT = 'userLoggedOut';
