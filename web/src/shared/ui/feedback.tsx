import type { MessageInstance } from 'antd/es/message/interface';
import type { ModalStaticFunctions } from 'antd/es/modal/confirm';
import type { NotificationInstance } from 'antd/es/notification/interface';

/**
 * antd 6 feedback (message, modal, notification) needs the App context for theme and locale;
 * the bridges keep the instances here so non-React code (the API client) can use them.
 *
 * This module imports nothing from antd at run time: the root mounts only the light message holder
 * (message-bridge.tsx) and the full antd App (modal, notification) is loaded with the frames
 * (FeedbackApp.tsx), which keeps the login route's JavaScript small (bench/web).
 */
export const feedback: {
  message: MessageInstance | null;
  modal: Omit<ModalStaticFunctions, 'warn'> | null;
  notification: NotificationInstance | null;
} = { message: null, modal: null, notification: null };

/** The root's message instance: what pages outside a frame (the login page) show messages with. */
export const rootFeedback: { message: MessageInstance | null } = { message: null };

export const rootMessages = (): MessageInstance | null => feedback.message ?? rootFeedback.message;
