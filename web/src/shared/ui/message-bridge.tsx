import { message } from 'antd';
import { feedback, rootFeedback } from './feedback.tsx';

/** The root's light message holder (no modal or notification: those come with the frames). */
export function MessageBridge() {
  const [api, holder] = message.useMessage();
  rootFeedback.message = api;
  if (!feedback.message) feedback.message = api;
  return holder;
}
