print("tracksnap")
