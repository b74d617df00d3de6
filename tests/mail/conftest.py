pytest_plugins = ["tests.support.mailservers"]
