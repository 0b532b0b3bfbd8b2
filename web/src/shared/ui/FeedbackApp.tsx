import { App } from 'antd';
import { useEffect, type ReactNode } from 'react';
import { feedback, rootFeedback } from './feedback.tsx';

type AppApi = ReturnType<typeof App.useApp>;
/** Mounted frames, newest last: when one goes (route to another frame, sign-out), the next takes over. */
const frames: AppApi[] = [];

function apply(app: AppApi | undefined) {
  feedback.message = app?.message ?? rootFeedback.message;
  feedback.modal = app?.modal ?? null;
  feedback.notification = app?.notification ?? null;
}

function FeedbackBridge() {
  const app = App.useApp();
  useEffect(() => {
    frames.push(app);
    apply(app);
    return () => {
      frames.splice(frames.indexOf(app), 1);
      apply(frames.at(-1));
    };
  }, [app]);
  return null;
}

/** The antd App with the bridge: wraps every frame but the login page (loaded lazily with them). */
export default function FeedbackApp({ children }: { children: ReactNode }) {
  return (
    <App>
      <FeedbackBridge />
      {children}
    </App>
  );
}
