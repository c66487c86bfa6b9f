// Keeps a render error from blanking the page: shows what broke and a way back.
import { Component, type ReactNode } from 'react';

interface State {
  error: Error | null;
}

export class ErrorBoundary extends Component<{ children: ReactNode }, State> {
  state: State = { error: null };

  static getDerivedStateFromError(error: Error): State {
    return { error };
  }

  render() {
    if (this.state.error) {
      return (
        <div role="alert" className="error-panel">
          <h2>Something went wrong while drawing this view</h2>
          <pre>{this.state.error.message}</pre>
          <a href="./">Back to the default scenario</a>
        </div>
      );
    }
    return this.props.children;
  }
}
