self.onmessage = (e) => self.postMessage(e.data * e.data);
