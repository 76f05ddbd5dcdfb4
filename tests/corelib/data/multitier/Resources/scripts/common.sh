install_package() {
    sudo apt-get -y -q install "$@"
}
