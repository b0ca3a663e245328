import { render } from 'preact';
import { App } from './app.tsx';
import './styles.css';
import './forms.css';
import './console.css';

render(<App />, document.getElementById('app')!);
