// Keeps a render error from blanking the page: shows what broke and a way back. Wrapped
// around the whole app and around each view, so one broken view leaves the others usable.
// `resetKey` clears the error when the input changes (e.g. a new run).
import { Component, type ReactNode } from 'react';

interface Props {
  children: ReactNode;
  label?: string;
  resetKey?: unknown;
}

interface State {
  error: Error | null;
  key: unknown;
}

export class ErrorBoundary extends Component<Props, State> {
  state: State = { error: null, key: this.props.resetKey };

  static getDerivedStateFromError(error: Error): Partial<State> {
    return { error };
  }

  static getDerivedStateFromProps(props: Props, state: State): Partial<State> | null {
    return props.resetKey !== state.key ? { error: null, key: props.resetKey } : null;
  }

  render() {
    if (this.state.error) {
      return (
        <div role="alert" className="error-panel">
          <h2>Something went wrong while drawing {this.props.label ?? 'this view'}</h2>
          <pre>{this.state.error.message}</pre>
          <a href="./">Back to the default scenario</a>
        </div>
      );
    }
    return this.props.children;
  }
}
