/** Entry point of the chat page: mounts {@link App} into `#root`. */
import { createRoot } from "react-dom/client";
import { App } from "./components/app.js";
import "./page.css";

const root = document.getElementById("root");
if (!root) throw new Error('The page has no #root element: index.html must contain <div id="root"></div>.');
createRoot(root).render(<App />);
