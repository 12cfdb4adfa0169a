import type {
  TAuthResult,
  TForgotPasswordRequest,
  TLoginRequest,
  TRegisterRequest,
  TResetPasswordRequest,
  TUser,
  TValidateTokenResult,
} from '@solterm/contracts';
import { api } from '../../../lib/api-client';

/** The account calls of spec part 1 §7. */
export const authApi = {
  login: (body: TLoginRequest) => api.post<TAuthResult>('/auth/login', body),
  register: (body: TRegisterRequest) => api.post<TAuthResult>('/auth/register', body),
  logout: () => api.post<unknown>('/auth/logout'),
  validateToken: () => api.get<TValidateTokenResult>('/user/validate-token'),
  getProfile: () => api.get<TUser>('/user/profile'),
  forgotPassword: (body: TForgotPasswordRequest) => api.post<unknown>('/auth/forgot-password', body),
  resetPassword: (body: TResetPasswordRequest) => api.post<unknown>('/auth/reset-password', body),
};
