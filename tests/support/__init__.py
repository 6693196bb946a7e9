"""What the tests share: servers, clients, data shapes, fixtures."""
