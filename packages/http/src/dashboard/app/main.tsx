/**
 * The dashboard's browser entry point (bundled by esbuild, see ../bundle.ts). It replaces
 * the server's skeleton in `#app`. Every request it makes is to this server, with the
 * session cookie only: the key never reaches this code.
 */
import { render } from 'preact';
import { App } from './components/App.js';
import './style.css';

const root = document.getElementById('app');
if (root) {
  root.textContent = '';
  render(<App />, root);
}
